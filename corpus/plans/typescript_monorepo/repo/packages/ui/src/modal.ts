export class Modal {
  open(): void {}

  close(): void {}
}
