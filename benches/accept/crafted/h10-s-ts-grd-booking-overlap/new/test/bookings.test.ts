import { describe, expect, it } from "vitest";
import { checkBooking, type Booking } from "../src/rooms/bookings";

const at = (h: number, m = 0) => new Date(Date.UTC(2027, 2, 10, h, m));
const standup: Booking = { id: "b1", roomId: "r1", start: at(9), end: at(9, 15) };

describe("checkBooking", () => {
  it("rejects a clash", () => {
    expect(() => checkBooking({ id: "b2", roomId: "r1", start: at(9, 5), end: at(10) }, [standup])).toThrow();
  });

  it("lets an all-day offsite book a room with a morning standup elsewhere", () => {
    const offsite: Booking = { id: "b3", roomId: "r2", start: at(0), end: at(0), allDay: true };
    expect(() => checkBooking(offsite, [standup, { ...standup, id: "b4", roomId: "r2", start: at(23, 55), end: at(23, 59) }])).not.toThrow();
  });
});
