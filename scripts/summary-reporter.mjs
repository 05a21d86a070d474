// A node:test reporter that prints one plain line at the end, `N passed, N failed`, which CI reads.
export default async function* summary(source) {
  let passed = 0;
  let failed = 0;
  for await (const event of source) {
    // count leaf tests only: a suite reports its own pass/fail on top of its tests'
    if (event.type === 'test:pass' && event.data.details?.type !== 'suite') passed++;
    if (event.type === 'test:fail' && event.data.details?.type !== 'suite') failed++;
  }
  yield `${passed} passed, ${failed} failed\n`;
}
