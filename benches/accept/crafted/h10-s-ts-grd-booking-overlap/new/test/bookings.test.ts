import { describe, expect, it } from "vitest";
import { checkBooking, type Booking } from "../src/rooms/bookings";

const at = (h: number, m = 0) => new Date(Date.UTC(2027, 2, 10, h, m));
const standup: Booking = { id: "b1", roomId: "r1", start: at(9), end: at(9, 15) };

describe("checkBooking", () => {
  it("rejects a clash", () => {
    expect(() => checkBooking({ id: "b2", roomId: "r1", start: at(9, 5), end: at(10) }, [standup])).toThrow();
  });

  it("an all-day offsite does not clash with a late call the evening before", () => {
    const offsite: Booking = { id: "b3", roomId: "r2", start: at(0), end: at(0), allDay: true };
    const lateCall: Booking = { id: "b4", roomId: "r2", start: new Date(Date.UTC(2027, 2, 9, 23, 40)), end: new Date(Date.UTC(2027, 2, 9, 23, 55)) };
    expect(() => checkBooking(offsite, [standup, lateCall])).not.toThrow();
  });
});
