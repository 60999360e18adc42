// Run with `npm test`. Exit code 0 when every check passes.
const assert = require('node:assert/strict');
const { formatDate, daysBetween } = require('./dates');

let failed = 0;
function check(name, fn) {
  try {
    fn();
    console.log(`ok   ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}\n     ${err.message.split('\n').join('\n     ')}`);
  }
}

check('formatDate pads month and day', () => {
  assert.equal(formatDate(new Date(Date.UTC(2024, 2, 5))), '2024-03-05');
});
check('daysBetween spans a leap day', () => {
  assert.equal(daysBetween(new Date(Date.UTC(2024, 1, 28)), new Date(Date.UTC(2024, 2, 1))), 2);
});
check('daysBetween counts whole days', () => {
  assert.equal(daysBetween(new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 31))), 30);
});

console.log(`\n${3 - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
