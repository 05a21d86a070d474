// Preloaded into a measured command (node -r bench/rss.cjs ...): reports its peak resident set and the CPU
// time of all its threads at exit.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nBENCH_MAXRSS_KB ${u.maxRSS}\nBENCH_CPU_US ${u.userCPUTime + u.systemCPUTime}\n`);
});
