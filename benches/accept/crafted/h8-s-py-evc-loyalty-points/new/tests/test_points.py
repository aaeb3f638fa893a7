import unittest

from loyalty.points import UnknownTier, accrue, balance_after, base_points


class BasePointsTest(unittest.TestCase):
    def test_zero_and_negative_spend(self):
        self.assertEqual(base_points(0), 0)
        self.assertEqual(base_points(-20), 0)

    def test_exact_multiple(self):
        self.assertEqual(base_points(50), 5)


class AccrueTest(unittest.TestCase):
    def test_silver_partial_units_are_not_counted(self):
        accrual = accrue(129.99, "silver")
        self.assertEqual(accrual.total, 13)

    def test_gold_multiplier(self):
        accrual = accrue(200, "gold")
        self.assertEqual(accrual.total, 30)
        self.assertIn("tier:gold", accrual.reasons)

    def test_campaign_bonus(self):
        accrual = accrue(100, "basic", campaign_bonus=25)
        self.assertEqual(accrual.total, 35)

    def test_unknown_tier(self):
        with self.assertRaises(UnknownTier):
            accrue(10, "diamond")


class BalanceTest(unittest.TestCase):
    def test_redeem_more_than_balance(self):
        with self.assertRaises(ValueError):
            balance_after(10, accrue(0, "basic"), redeemed=11)


if __name__ == "__main__":
    unittest.main()
