import { describe, expect, it } from "vitest";
import { parseFilefrag } from "./filefrag.js";

// captured on XFS (reflink=1): a, b and "d x/e f" are clones of one file; c is delayed allocation
const OUTPUT = `Filesystem type is: 58465342
File size of a is 1000000 (1003520 blocks of 1 bytes)
 ext:     logical_offset:        physical_offset: length:   expected: flags:
   0:        0.. 1003519:      98304..   1101823: 1003520:             last,shared,eof
a: 1 extent found
File size of c is 3 (4096 blocks of 1 bytes)
 ext:     logical_offset:        physical_offset: length:   expected: flags:
   0:        0..    4095:          0..      4095:   4096:             last,unknown_loc,delalloc,eof
c: 1 extent found
File size of d x/e f is 1000000 (1003520 blocks of 1 bytes)
 ext:     logical_offset:        physical_offset: length:   expected: flags:
   0:        0..  499711:      98304..    598015:  499712:
   1:   499712.. 1003519:    7000000..   7503807:  503808:    598016: last,shared,eof
d x/e f: 2 extents found
`;

describe("parseFilefrag", () => {
  it("sums the shared extents of each file, in argument order; a file without a section is absent", () => {
    const r = parseFilefrag(OUTPUT, ["a", "gone", "c", "d x/e f"]);
    expect(r.get("a")).toEqual({ sharedBytes: 1003520, shared: [{ physical: 98304, length: 1003520 }] });
    expect(r.has("gone")).toBe(false);
    expect(r.get("c")).toEqual({ sharedBytes: 0, shared: [] });
    expect(r.get("d x/e f")).toEqual({ sharedBytes: 503808, shared: [{ physical: 7000000, length: 503808 }] });
  });

  it("refuses output it does not understand", () => {
    expect(() => parseFilefrag("File size of z is 1 (1 blocks of 1 bytes)\n", ["a"])).toThrow(/not asked about/);
    expect(() => parseFilefrag("File size of a is 1 (1 blocks of 1 bytes)\nweird line\n", ["a"])).toThrow(/unknown shape/);
  });
});
