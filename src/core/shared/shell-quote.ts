// One word for a POSIX shell: as it is when it holds only characters no shell reads specially,
// else in single quotes (a quote inside written as '\''). Used wherever Orchard writes a command
// line that a shell will run or a person will paste.
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
