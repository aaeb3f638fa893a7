import unittest

from shop.discount import apply_discount


class DiscountTest(unittest.TestCase):
    def test_member_rate(self):
        order = make_order(member=True)
        self.assertTrue(apply_discount(order, "TEN"))

    def test_unknown_code(self):
        with self.assertRaises(InvalidCode):
            apply_discount(make_order(), "NOPE")

    def test_rounding(self):
        self.assertAlmostEqual(apply_discount(make_order(total=0.3), "TEN"), 0.27, places=7)
