export interface Message {
  to: string;
  subject: string;
}

export async function send(msg: Message, transport: (m: Message) => Promise<void>): Promise<boolean> {
  if (!msg.to.includes('@'))
    return false;
  const subject = msg.subject.trim();
  await transport({
    ...msg,
    subject: subject.length > 0 ? subject : '(no subject)',
  });
  return true;
}

export const isValid = (m: Message): boolean => m.to.includes('@');
