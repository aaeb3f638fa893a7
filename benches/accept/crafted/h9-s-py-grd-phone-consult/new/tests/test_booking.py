import datetime as dt
import unittest

from clinic.booking import BookingRejected, Calendar, day_report

DAY = dt.date(2026, 5, 11)


def at(h, m=0):
    return dt.datetime.combine(DAY, dt.time(h, m))


class BookingTest(unittest.TestCase):

    def setUp(self):
        self.cal = Calendar("dr-okafor", DAY)
        self.cal.book(at(8), 30, "p-1")
        self.cal.book(at(9), 45, "p-2")

    def test_overlap_is_rejected(self):
        with self.assertRaises(BookingRejected) as ctx:
            self.cal.book(at(9, 30), 15, "p-3")
        self.assertEqual(ctx.exception.reason, "overlaps another appointment")

    def test_back_to_back_is_fine(self):
        self.assertEqual(self.cal.book(at(9, 45), 15, "p-3"), (at(9, 45), at(10)))

    def test_after_closing_is_rejected(self):
        with self.assertRaises(BookingRejected):
            self.cal.book(at(17, 45), 30, "p-4")

    def test_odd_length_is_rejected(self):
        with self.assertRaises(BookingRejected):
            self.cal.book(at(11), 20, "p-5")

    def test_ten_minute_phone_consult(self):
        self.assertEqual(self.cal.book(at(11), 10, "tel-7"), (at(11), at(11, 10)))

    def test_first_free(self):
        self.assertEqual(self.cal.first_free(60), at(9, 45))

    def test_report(self):
        report = day_report(self.cal)
        self.assertEqual(report["booked_minutes"], 75)
        self.assertEqual(report["utilisation"], 12.5)
        self.assertEqual(report["first_free"], at(8, 30))


if __name__ == "__main__":
    unittest.main()
