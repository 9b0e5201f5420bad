/**
 * The multi-byte CJK charsets (big5, gbk, gb2312, gb18030, sjis, cp932, ujis, eucjpms, euckr):
 * TextDecoder does the work, and the few sequences where the server's mapping differs from the WHATWG
 * one (charset-overrides.ts) are spliced in. Values without such a sequence take one decode call.
 */
import { MULTIBYTE_OVERRIDES } from './charset-overrides.ts';

type Decode = (b: Uint8Array, o: number, len: number) => string;
/** Bytes of the character starting at b[i] (a lone lead byte at the end is cut by the caller). */
type CharLength = (b: Uint8Array, i: number) => number;

const doubleByte: CharLength = (b, i) => (b[i] >= 0x81 && b[i] <= 0xfe ? 2 : 1);
const shiftJis: CharLength = (b, i) => ((b[i] >= 0x81 && b[i] <= 0x9f) || (b[i] >= 0xe0 && b[i] <= 0xfc) ? 2 : 1);
const eucJp: CharLength = (b, i) => (b[i] === 0x8f ? 3 : b[i] === 0x8e || (b[i] >= 0xa1 && b[i] <= 0xfe) ? 2 : 1);
const gb18030: CharLength = (b, i) => (b[i] < 0x81 || b[i] > 0xfe ? 1 : b[i + 1] >= 0x30 && b[i + 1] <= 0x39 ? 4 : 2);

const CHAR_LENGTH: Record<string, CharLength> = {
  big5: doubleByte, gbk: doubleByte, gb2312: doubleByte, euckr: doubleByte, gb18030,
  sjis: shiftJis, cp932: shiftJis, ujis: eucJp, eucjpms: eucJp,
};

export function isMultibyteCjk(charset: string): boolean {
  return charset in CHAR_LENGTH;
}

/** How many bytes the character at b[i] takes in this CJK charset, or null for another charset. */
export function cjkCharLength(charset: string): CharLength | null {
  return CHAR_LENGTH[charset] ?? null;
}

/** The user-defined rows 0xF5-0xFE of EUC-JP (2-byte) and of JIS X 0212 (0x8F + 2 bytes) in the Private Use Area. */
function eucJpPrivateUse(b: Uint8Array, i: number, n: number): string | undefined {
  const row = b[i + n - 2];
  const cell = b[i + n - 1];
  if (row < 0xf5 || row > 0xfe || cell < 0xa1 || cell > 0xfe || (n === 3) !== (b[i] === 0x8f)) return undefined;
  return String.fromCharCode((n === 3 ? 0xe3ac : 0xe000) + (row - 0xf5) * 94 + (cell - 0xa1));
}

function overridesOf(charset: string, td: TextDecoder): Map<number, string> {
  const map = new Map<number, string>();
  for (const entry of (MULTIBYTE_OVERRIDES[charset] ?? '').split(' ')) {
    if (entry === '') continue;
    const [seq, cp] = entry.split(':');
    map.set(parseInt(seq, 16), String.fromCodePoint(parseInt(cp, 16)));
  }
  if (charset === 'euckr') addUhc(map, td);
  return map;
}

/**
 * euckr in MySQL/MariaDB includes Microsoft's UHC extension (as WHATWG's euc-kr does, Node's ICU
 * decoder does not): the 8,822 Hangul syllables that KS X 1001 lacks, in Unicode order, on leads
 * 0x81-0xC6 with trails A-Z, a-z and 0x81 up to the KS X 1001 area. Added only where the local
 * decoder lacks it.
 */
function addUhc(map: Map<number, string>, td: TextDecoder): void {
  if (td.decode(new Uint8Array([0x81, 0x41])) === '\uac02') return;
  const inKsX1001 = new Set<number>();
  for (let lead = 0xb0; lead <= 0xc8; lead++) {
    for (let trail = 0xa1; trail <= 0xfe; trail++) inKsX1001.add(td.decode(new Uint8Array([lead, trail])).charCodeAt(0));
  }
  let syllable = 0xac00;
  const next = () => {
    while (inKsX1001.has(syllable)) syllable++;
    return syllable++;
  };
  for (let lead = 0x81; lead <= 0xc6 && syllable <= 0xd7a3; lead++) {
    for (let trail = 0x41; trail <= (lead < 0xa1 ? 0xfe : 0xa0) && syllable <= 0xd7a3; trail++) {
      if ((trail > 0x5a && trail < 0x61) || (trail > 0x7a && trail < 0x81)) continue;
      const cp = next();
      if (cp <= 0xd7a3) map.set((lead << 8) | trail, String.fromCharCode(cp));
    }
  }
}

export function multibyteDecoder(charset: string, label: string): Decode {
  const td = new TextDecoder(label);
  const charLength = CHAR_LENGTH[charset];
  const overrides = overridesOf(charset, td);
  const privateUse = charset === 'ujis' || charset === 'eucjpms';
  const whole: Decode = (b, o, len) => td.decode(b.subarray(o, o + len));
  return (b, o, len) => {
    const end = o + len;
    let out = '';
    let run = o;
    for (let i = o; i < end; ) {
      if (b[i] < 0x80) {
        i++;
        continue;
      }
      const n = Math.min(charLength(b, i), end - i);
      let key = 0;
      for (let k = 0; k < n; k++) key = key * 256 + b[i + k];
      const special = overrides.get(key) ?? (privateUse && n > 1 ? eucJpPrivateUse(b, i, n) : undefined);
      if (special !== undefined) {
        out += whole(b, run, i - run) + special;
        run = i + n;
      }
      i += n;
    }
    return run === o ? whole(b, o, len) : out + whole(b, run, end - run);
  };
}
