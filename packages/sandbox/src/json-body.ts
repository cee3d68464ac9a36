// A response body serialized once: a handler that answers the same view again (a video polled while
// nothing in it changes) returns the same Json, and the route sends its text without serializing again.
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export class Json<T extends object = object> {
  readonly text: string;
  constructor(readonly value: T) {
    this.text = JSON.stringify(value);
  }
}
