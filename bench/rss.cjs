// Preloaded into a measured command (node -r bench/rss.cjs ...): reports its peak resident set at exit.
process.on('exit', () => process.stderr.write(`\nBENCH_MAXRSS_KB ${process.resourceUsage().maxRSS}\n`));
