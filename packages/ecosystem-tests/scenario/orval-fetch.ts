// orval's custom fetch (`override.mutator`, the way its docs give a base URL and headers to the fetch
// client): prefixes the base URL, adds the key, and answers `{ data, status, headers }` as its functions expect.
export async function customFetch<T>(path: string, init: RequestInit): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${process.env.VIDEO_API_KEY}`);
  const response = await fetch(`${process.env.VIDEO_API_BASE_URL}${path}`, { ...init, headers });
  const text = [204, 205, 304].includes(response.status) ? '' : await response.text();
  return { data: text ? JSON.parse(text) : {}, status: response.status, headers: response.headers } as T;
}
