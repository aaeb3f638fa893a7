export function taxRate(region: string): number {
  switch (region) {
    case 'FR':
      return 0.2;
    case 'DE':
      return 0.19;
    case 'IT':
      return 0.22;
    default:
      throw new Error(`unknown region ${region}`);
  }
}
