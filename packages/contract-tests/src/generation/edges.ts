// The values at the edges of one schema keyword, each named by its class of input, as Schemathesis's
// coverage phase draws them (minimum and one step past it, empty, one character, very long, other
// types, near misses of an enum) and past what it draws where real services break: integers far past
// any page a list has (2^31, 2^53, 10^18: overflow, offset arithmetic, a slow OFFSET), non-ASCII text,
// an enum value in another case, with spaces, or one keystroke from a neighbouring value.
// Pure functions of the schema's keywords: which of them a request must be refused for is decided
// beside the request (boundary-cases.ts), from the document and the rules.

/** One value and its class of input, as a failure names it (`page 2^31`). */
export interface Edge<T = string> {
  value: T;
  /** The class of input: `2^31`, `below the minimum`, `another case`. */
  cls: string;
}

/** Integers past any page a list plausibly has, as query text (the interface sets no maximum on `page`). */
export const LARGE_INTEGERS: readonly Edge[] = [
  { value: String(2 ** 31 - 1), cls: '2^31 − 1' },
  { value: String(2 ** 31), cls: '2^31' },
  { value: String(2 ** 53), cls: '2^53' },
  { value: String(10 ** 6), cls: '10^6' },
  // Past 2^53: written as text, never through a JavaScript number.
  { value: `1${'0'.repeat(18)}`, cls: '10^18' },
];

/**
 * An integer query parameter's edges, as text: the minimum and one below it, one past a declared
 * maximum, and without a maximum the large values above. `refused`: outside the schema (below the
 * minimum, past the maximum, not an integer); `allowed`: inside it; `open`: text the schema's reading
 * does not settle (a leading zero, spaces, an empty value, a non-ASCII digit, the value given twice):
 * a service may read it either way, so only a conforming answer is asked of it.
 */
export function integerEdges(minimum: number | undefined, maximum: number | undefined) {
  const min = minimum ?? 0;
  const allowed: Edge[] = [{ value: String(min), cls: 'the minimum' }];
  const refused: Edge[] = [
    { value: String(min - 1), cls: 'below the minimum' },
    { value: '1.5', cls: 'not an integer' },
    { value: 'null', cls: 'another JSON type' },
  ];
  if (maximum !== undefined) {
    allowed.push({ value: String(maximum), cls: 'the maximum' });
    refused.push({ value: String(maximum + 1), cls: 'past the maximum' });
  } else allowed.push(...LARGE_INTEGERS);
  const open: Edge[] = [
    { value: '', cls: 'empty' },
    { value: ` ${min} `, cls: 'surrounding spaces' },
    // ARABIC-INDIC DIGIT ONE: a digit to Unicode (Python's int() reads it as 1), not to ASCII parsers.
    { value: `\u0661${'\u0660'.repeat(Math.max(0, String(min).length - 1))}`, cls: 'non-ASCII digits' },
    { value: '9'.repeat(400), cls: 'very long (400 digits)' },
  ];
  return { allowed, refused, open };
}

/** How a value is written: letters, digits and signs by kind (`ja` → `aa`, `zh-Hans` → `aa-Aaaa`, `16:9` → `99:9`). */
export const shapeOf = (v: string) => v.replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/[0-9]/g, '9');

/**
 * The values of an enum a boundary phase always sends (`edge`): the first, the last and the first of
 * each shape of value (a code with a region, a ratio with two digits), where a parser's handling
 * differs; and the others (`rest`), sent when the target's pace leaves room (the value tier).
 */
export function enumEdges(values: readonly string[]): { edge: string[]; rest: string[] } {
  const edge: string[] = [];
  const shapes = new Set<string>();
  for (const v of values) {
    const shape = shapeOf(v);
    if (!shapes.has(shape)) {
      shapes.add(shape);
      edge.push(v);
    }
  }
  const last = values[values.length - 1];
  if (last !== undefined && !edge.includes(last)) edge.push(last);
  return { edge, rest: values.filter((v) => !edge.includes(v)) };
}

/** The next character of the same kind (`a` → `b`, `z` → `a`, `9` → `0`), as a neighbouring key would type it. */
function nextOf(ch: string): string {
  const code = ch.charCodeAt(0);
  const wrap = (first: string, last: string) => (code === last.charCodeAt(0) ? first : String.fromCharCode(code + 1));
  if (/[a-z]/.test(ch)) return wrap('a', 'z');
  if (/[A-Z]/.test(ch)) return wrap('A', 'Z');
  if (/[0-9]/.test(ch)) return wrap('0', '9');
  return ch;
}

/**
 * The near misses of one enum value, none of them a value of the enum: in another case (upper, and
 * lower where it mixes cases), with surrounding spaces, and with a typo that moves its last letter or
 * digit one step (toward a neighbouring value: `zh-Hans` → `zh-Hant` is a value, so `zh-Hanu`).
 */
export function nearMisses(value: string, values: readonly string[]): Edge[] {
  const out: Edge[] = [];
  const add = (v: string, cls: string) => {
    if (!values.includes(v) && !out.some((e) => e.value === v)) out.push({ value: v, cls });
  };
  add(value.toUpperCase(), 'another case');
  add(value.toLowerCase(), 'another case');
  add(` ${value} `, 'surrounding spaces');
  let typo = value;
  for (let i = 0; i < 25 && (typo === value || values.includes(typo)); i++)
    typo = typo.slice(0, -1) + nextOf(typo.slice(-1));
  if (typo !== value) add(typo, 'a typo');
  return out;
}

/** Strings at the edges of a free text field: empty, one character, very long, non-ASCII. */
export function stringEdges(sample: string, long: number): Edge[] {
  return [
    { value: '', cls: 'empty' },
    { value: sample.slice(0, 1), cls: 'one character' },
    {
      value: sample.repeat(Math.ceil(long / Math.max(1, sample.length))).slice(0, long),
      cls: `very long (${long} characters)`,
    },
    // Accents, CJK, right-to-left, an emoji (outside the BMP) and a combining mark.
    { value: 'Vidéo 動画 فيديو 🎬 é', cls: 'non-ASCII' },
  ];
}

/** Values of every JSON type but string, for a field the schema types as a string. */
export function otherTypes(sample: string): Edge<unknown>[] {
  return [
    { value: null, cls: 'null' },
    { value: 42, cls: 'a number' },
    { value: true, cls: 'a boolean' },
    { value: [sample], cls: 'an array' },
    { value: { value: sample }, cls: 'an object' },
  ];
}
