// A Map that holds at most `limit` entries: setting a new key past the limit forgets the oldest one.
// The sandbox's caches (decoded videos, answered views, checked responses) are this, so none grows
// with the traffic.
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
