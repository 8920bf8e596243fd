// A streaming reader for knowledge.ingest's JSON body, {"persona": …, "name": …,
// "dataBase64": …}: the small fields are kept, the file's base64 is decoded
// piece by piece as it arrives and handed on, so a 100 MB upload never sits in
// memory (a general streaming JSON parser measured 8 MB/s here; this one
// only looks for the closing quote inside the big value).

/** The body is not the JSON object of strings this route takes. */
export class MalformedBody extends Error {}

/** The body names a field the door refuses outright (e.g. a server-side path). */
export class RefusedField extends Error {
  constructor(readonly field: string) {
    super(`field ${field} refused`);
  }
}

const DATA_KEY = 'dataBase64';
const MAX_KEY_BYTES = 64;
const MAX_FIELD_BYTES = 4096;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Decodes base64 text arriving in pieces of any length. */
class Base64Pieces {
  private carry = '';
  private padded = false;

  push(text: string): Buffer | null {
    if (!text) return null;
    if (this.padded) throw new MalformedBody('dataBase64 goes on after its padding.');
    const all = this.carry + text;
    const usable = all.length - (all.length % 4);
    this.carry = all.slice(usable);
    const block = all.slice(0, usable);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(block)) throw new MalformedBody('dataBase64 is not valid base64.');
    if (block.endsWith('=')) this.padded = true;
    return block ? Buffer.from(block, 'base64') : null;
  }

  end(): Buffer | null {
    const rest = this.carry;
    this.carry = '';
    // Unpadded base64 ends with 2 or 3 characters; 1 is never valid.
    if (rest.length === 1 || (rest && this.padded)) throw new MalformedBody('dataBase64 is not valid base64.');
    if (rest && !/^[A-Za-z0-9+/]+$/.test(rest)) throw new MalformedBody('dataBase64 is not valid base64.');
    return rest ? Buffer.from(rest, 'base64') : null;
  }
}

type State = 'start' | 'firstKey' | 'key' | 'colon' | 'value' | 'field' | 'data' | 'afterValue' | 'nextKey' | 'end';

export interface IngestBodyOptions {
  /** Called with each decoded piece of the file, in order; awaited before more is read. */
  onData(bytes: Buffer): Promise<void>;
  /** Fields refused as soon as their name is read. */
  refused: readonly string[];
}

export class IngestBodyReader {
  readonly fields: Record<string, string> = {};
  sawData = false;
  private state: State = 'start';
  private raw: number[] = []; // the key or small field being read, as bytes
  private escaped = false;
  private key = '';
  private dataEscape = false;
  private readonly base64 = new Base64Pieces();

  constructor(private readonly options: IngestBodyOptions) {}

  async push(chunk: Buffer): Promise<void> {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'data') {
        i = await this.readData(chunk, i);
        continue;
      }
      this.step(chunk[i]!);
      i++;
    }
  }

  async end(): Promise<void> {
    if (this.state !== 'end') throw new MalformedBody('The request body ends before its JSON object does.');
  }

  /** Reads base64 from `i` up to the closing quote (or the chunk's end); returns where it stopped. */
  private async readData(chunk: Buffer, i: number): Promise<number> {
    if (this.dataEscape) {
      // JSON may escape "/" as "\/"; nothing else belongs in base64.
      if (chunk[i] !== SLASH) throw new MalformedBody('dataBase64 holds an escape that base64 never needs.');
      this.dataEscape = false;
      await this.emit(this.base64.push('/'));
      return i + 1;
    }
    const quote = chunk.indexOf(QUOTE, i);
    const slash = chunk.indexOf(BACKSLASH, i);
    const stop = [quote, slash].filter((x) => x >= 0).reduce((a, b) => Math.min(a, b), chunk.length);
    await this.emit(this.base64.push(chunk.toString('latin1', i, stop)));
    if (stop === chunk.length) return stop;
    if (stop === slash) {
      this.dataEscape = true;
      return stop + 1;
    }
    await this.emit(this.base64.end());
    this.state = 'afterValue';
    return stop + 1;
  }

  private async emit(bytes: Buffer | null): Promise<void> {
    if (bytes && bytes.length) await this.options.onData(bytes);
  }

  private step(b: number): void {
    switch (this.state) {
      case 'start':
        if (isSpace(b)) return;
        if (b !== 0x7b) throw new MalformedBody('The request body must be a JSON object.');
        this.state = 'firstKey';
        return;
      case 'firstKey':
      case 'nextKey':
        if (isSpace(b)) return;
        if (b === 0x7d && this.state === 'firstKey') return void (this.state = 'end');
        if (b !== QUOTE) throw new MalformedBody('Expected a field name in the request body.');
        this.state = 'key';
        return;
      case 'key':
        if (this.collect(b, MAX_KEY_BYTES)) {
          this.key = this.decoded();
          if (this.options.refused.includes(this.key)) throw new RefusedField(this.key);
          if (Object.prototype.hasOwnProperty.call(this.fields, this.key) || (this.key === DATA_KEY && this.sawData)) {
            throw new MalformedBody(`The field ${this.key} appears twice.`);
          }
          this.state = 'colon';
        }
        return;
      case 'colon':
        if (isSpace(b)) return;
        if (b !== 0x3a) throw new MalformedBody('Expected ":" after a field name.');
        this.state = 'value';
        return;
      case 'value':
        if (isSpace(b)) return;
        if (b !== QUOTE) throw new MalformedBody(`The field ${this.key} must be a string.`);
        if (this.key === DATA_KEY) {
          this.sawData = true;
          this.state = 'data';
        } else this.state = 'field';
        return;
      case 'field':
        if (this.collect(b, MAX_FIELD_BYTES)) {
          this.fields[this.key] = this.decoded();
          this.state = 'afterValue';
        }
        return;
      case 'afterValue':
        if (isSpace(b)) return;
        if (b === 0x2c) return void (this.state = 'nextKey');
        if (b === 0x7d) return void (this.state = 'end');
        throw new MalformedBody('Expected "," or "}" after a value.');
      case 'end':
        if (!isSpace(b)) throw new MalformedBody('Unexpected text after the JSON object.');
        return;
      case 'data':
        throw new Error('unreachable: data is read in bulk');
    }
  }

  /** Adds a byte of a quoted string; true when its closing quote was reached. */
  private collect(b: number, max: number): boolean {
    if (!this.escaped && b === QUOTE) return true;
    this.escaped = !this.escaped && b === BACKSLASH;
    this.raw.push(b);
    if (this.raw.length > max) throw new MalformedBody(`A field ${this.state === 'key' ? 'name' : `(${this.key})`} is longer than ${max} bytes.`);
    return false;
  }

  private decoded(): string {
    const text = Buffer.from(this.raw).toString('utf8');
    this.raw = [];
    this.escaped = false;
    try {
      return JSON.parse(`"${text}"`) as string;
    } catch {
      throw new MalformedBody('A string in the request body is not valid JSON.');
    }
  }
}
