import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './_errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function parse<O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    const message = (e as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`${command}: ${message}`);
  }
}

/** parse() for a command that takes options only: a stray word, a typo no one would be told of, is refused. */
export function parseOptions<O extends Options>(command: string, argv: string[], options: O) {
  const parsed = parse(command, argv, options);
  const stray = parsed.positionals[0];
  if (stray !== undefined)
    throw new UsageError(
      `${command}: unexpected argument "${stray}": ${command} takes options only (stallguard ${command} --help)`,
    );
  return parsed;
}

export function oneOf<T extends string>(
  command: string,
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T))
    throw new UsageError(`${command}: --${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

export function parsePort(command: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1024 || n > 65535)
    throw new UsageError(`${command}: --port must be a whole number from 1024 to 65535 (got "${value}")`);
  return n;
}
