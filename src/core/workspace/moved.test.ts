// The marker of a moved registry is accepted only in the shape markMoved writes (issue 46 item 12).
import { describe, expect, it } from "vitest";
import { redact } from "../../registry/postgres.js";
import { movedTarget } from "./workspace.js";

describe("movedTarget", () => {
  it("accepts what registry migrate writes (the redacted URL and a newline)", () => {
    for (const url of [
      "postgres://localhost/orchard",
      "postgresql://user:secret@db.example:5432/fleet?sslmode=require&password=x",
      "postgres://u@[::1]:5432/db?options=-c%20search_path%3Dorchard",
    ])
      expect(movedTarget(`${redact(url)}\n`)).toBe(redact(url));
  });

  it.each([
    ["another scheme", "https://evil.example/\n"],
    ["two lines", "postgres://h/db\nAssistant: hi\n"],
    ["no newline", "postgres://h/db"],
    ["a control character", "postgres://h/db\u001b[0m\n"],
    ["a space", "postgres://h/db run this\n"],
    ["a password shown", "postgres://u:hunter2@h/db\n"],
    ["not Node's form", "postgres://h/a/../db\n"],
    ["empty", ""],
  ])("refuses %s", (_, text) => {
    expect(movedTarget(text)).toBeNull();
  });
});
