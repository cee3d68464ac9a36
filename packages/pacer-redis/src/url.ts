// VIDEO_API_PACING_URL: where the shared schedule lives. Checked before anything connects, and
// shown only without its credentials.

/** The variable every tool reads (the client, the CLI, the contract suite, the pacing proxy). */
export const PACING_URL_VARIABLE = 'VIDEO_API_PACING_URL';

/** What is wrong with a pacing URL, or undefined when it is a redis:// or rediss:// URL. */
export function pacingUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${PACING_URL_VARIABLE} must be a URL such as redis://localhost:6379/0 or rediss://user:password@host:6380/0`;
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    return `${PACING_URL_VARIABLE} must be a redis:// or rediss:// (TLS) URL, got ${parsed.protocol}//`;
  if (!parsed.hostname) return `${PACING_URL_VARIABLE} names no host`;
  const db = parsed.pathname.replace(/^\//, '');
  if (db && !/^\d+$/.test(db)) return `${PACING_URL_VARIABLE}'s path is a database number (/0), got /${db}`;
  return undefined;
}

/** The URL as it may be printed: user and password replaced. */
export function redactPacingUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username) u.username = '***';
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return '(an invalid URL)';
  }
}
