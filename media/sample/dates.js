// Date helpers for the invoice printer.

/** Formats a Date as YYYY-MM-DD (in UTC). */
function formatDate(date) {
  const year = date.getUTCFullYear();
  const month = String(date.getUTCMonth()).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

/** The number of whole days from `from` to `to`. */
function daysBetween(from, to) {
  return Math.round((to - from) / 86_400_000);
}

module.exports = { formatDate, daysBetween };
