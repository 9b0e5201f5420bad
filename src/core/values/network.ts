/**
 * MariaDB's fixed-size binary types (plugin/type_inet, plugin/type_uuid): INET4 (4 bytes), INET6
 * (16 bytes) and UUID (16 bytes), shown in the text forms the server's SELECT prints.
 */
import type { Render } from './render.ts';

const HEX = '0123456789abcdef';

/** INET4: the 4 address bytes in network order. */
export const renderInet4: Render = (b, o) => `${b[o]}.${b[o + 1]}.${b[o + 2]}.${b[o + 3]}`;

/**
 * INET6 (Inet6::to_string): lower-case groups without leading zeros; the longest run of zero groups,
 * even a run of one, the first of equally long ones, becomes `::`. An address whose first 6 groups
 * are zero (IPv4-compatible) or first 5 zero and the 6th ffff (IPv4-mapped) ends in dotted IPv4.
 */
export const renderInet6: Render = (b, o) => {
  const word = (i: number) => (b[o + 2 * i] << 8) | b[o + 2 * i + 1];
  let gapPos = -1;
  let gapLen = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && word(j) === 0) j++;
    if (j - i > gapLen) {
      gapPos = i;
      gapLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  let s = '';
  for (let i = 0; i < 8; i++) {
    if (i === gapPos) {
      s += i === 0 ? '::' : ':';
      i += gapLen - 1;
    } else if (i === 6 && gapPos === 0 && (gapLen === 6 || (gapLen === 5 && word(5) === 0xffff))) {
      return s + renderInet4(b, o + 12, 4);
    } else {
      s += word(i).toString(16) + (i < 7 ? ':' : '');
    }
  }
  return s;
};

/**
 * UUID. MariaDB stores UUIDs of versions 1-5 with the RFC variant (and version 0 with a non-zero
 * time-high) with their groups in reverse order (node, clock-seq, time-hi, time-mid, time-low), so
 * that time-based UUIDs sort by time; others as they are. Stored bytes 6 and 8 tell which
 * (UUID::rec_need_swap): a swapped value has the variant bit in byte 6 and a version byte of 0x01-0x80
 * in byte 8.
 */
const SWAPPED_ORDER = [12, 13, 14, 15, -1, 10, 11, -1, 8, 9, -1, 6, 7, -1, 0, 1, 2, 3, 4, 5];
const PLAIN_ORDER = [0, 1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10, 11, 12, 13, 14, 15];

export const renderUuid: Render = (b, o) => {
  const version = b[o + 8];
  const swapped = (b[o + 6] & 0x80) !== 0 && version >= 0x01 && version <= 0x80;
  const order = swapped ? SWAPPED_ORDER : PLAIN_ORDER;
  let s = '';
  for (const i of order) {
    if (i < 0) s += '-';
    else s += HEX[b[o + i] >> 4] + HEX[b[o + i] & 15];
  }
  return s;
};
