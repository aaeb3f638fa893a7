import { convert, formatTime, OffsetError, parseOffset } from "./offset";

describe("parseOffset", () => {
  it("reads whole hours", () => {
    expect(parseOffset("UTC+2")).toBe(120);
    expect(parseOffset("UTC-5")).toBe(-300);
  });

  it("reads half-hour and 45-minute offsets", () => {
    expect(parseOffset("UTC+05:30")).toBe(330);
    expect(parseOffset("UTC+0545")).toBe(345);
    expect(parseOffset("UTC-03:30")).toBe(-210);
  });

  it("rejects garbage", () => {
    expect(() => parseOffset("GMT plus two")).toThrow(OffsetError);
  });
});

describe("convert", () => {
  it("moves across midnight", () => {
    const t = convert({ hour: 23, minute: 0 }, "UTC+1", "UTC+9");
    expect(formatTime(t)).toBe("07:00");
    expect(t.dayShift).toBe(1);
  });
});
