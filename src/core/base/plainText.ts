/** Text as an editor holds it: no byte-order mark, every line ending `\n`. */
export function plainText(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}
