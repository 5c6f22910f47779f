import { describe, expect, it } from "vitest";
import { decodeGitBytes, encodeGitBytes, hasEscapedBytes, printfWord } from "./bytes.js";

const bytes = (...b: number[]): Buffer => Buffer.from(b);

describe("git's bytes as text and back", () => {
  it("valid UTF-8 is decoded as is; every other byte becomes U+DC00+byte, never U+FFFD", () => {
    expect(decodeGitBytes(Buffer.from("héllo 🍐", "utf8"))).toBe("héllo 🍐");
    expect(decodeGitBytes(bytes(0x78, 0xff))).toBe("x\udcff");
    expect(decodeGitBytes(bytes(0xc3))).toBe("\udcc3"); // a sequence cut short
    expect(decodeGitBytes(bytes(0xe0, 0x80, 0x80))).toBe("\udce0\udc80\udc80"); // overlong
    expect(decodeGitBytes(bytes(0xed, 0xa0, 0x80))).toBe("\udced\udca0\udc80"); // an encoded surrogate
    expect(decodeGitBytes(bytes(0x61, 0xc3, 0xa9, 0xfe, 0x62))).toBe("aé\udcfeb");
  });

  it("encodes back to exactly the bytes read, whatever they were", () => {
    const samples = [
      bytes(0x78, 0xff),
      bytes(0xc3),
      bytes(0xe0, 0x80, 0x80),
      bytes(0xed, 0xa0, 0x80),
      Buffer.from("é🍐\u{1f480}", "utf8"),
      bytes(0xf4, 0x90, 0x80, 0x80),
    ];
    for (const sample of samples) expect(encodeGitBytes(decodeGitBytes(sample)).equals(sample)).toBe(true);
  });

  it("only escaped bytes count, not the low half of a real pair", () => {
    expect(hasEscapedBytes("x\udcff")).toBe(true);
    expect(hasEscapedBytes("\u{1f480}")).toBe(false); // U+1F480 is D83D DC80
    expect(hasEscapedBytes("plain")).toBe(false);
  });

  it("a printf word stands for the same bytes, backslashes and newlines included", () => {
    expect(printfWord("refs/heads/x\udcff")).toBe("refs/heads/x\\0377");
    expect(printfWord("a\\b\n")).toBe("a\\0134b\\0012");
  });
});

describe("an argument with such bytes reaches the program as those bytes (run.ts)", () => {
  it("through the shell's printf, trailing newline and quotes kept", async () => {
    const { runProcess } = await import("./run.js");
    const r = await runProcess("printf", ["%s|", "x\udcff\n", "it's \\ $HOME"], { cwd: process.cwd(), env: process.env, timeoutMs: 30_000 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("x\udcff\n|it's \\ $HOME|");
    expect(r.args).toEqual(["%s|", "x\udcff\n", "it's \\ $HOME"]);
  });
});
