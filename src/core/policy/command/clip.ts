/** Text for a reason: whitespace runs made one space, cut at `max` characters. */
export function clip(s: string, max = 80): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > max ? flat.slice(0, max) + '…' : flat;
}
