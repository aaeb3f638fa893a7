export enum Level {
  Debug,
  Info,
  Warn,
  Error,
}

export function prefix(level: Level): string {
  switch (level) {
    case Level.Debug:
    case Level.Info:
      return 'I';
    case Level.Warn: {
      const tag = 'W';
      return tag;
    }
    default:
      throw new RangeError(`bad level ${level}`);
  }
}
