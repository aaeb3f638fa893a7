import unittest

from fleetota.waves import PollPolicy, WaveTimeout, split_waves, wait_for_acks


class FakeClock:
    def __init__(self):
        self.t = 0.0
        self.sleeps = []

    def now(self):
        return self.t

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.t += seconds


class FakeRegistry:
    """Each device reports the new build from its ack time onward."""

    def __init__(self, clock, ack_at):
        self.clock, self.ack_at = clock, ack_at

    def __call__(self, device):
        return "7.2.0" if self.clock.now() >= self.ack_at[device] else "7.1.4"


class SplitWavesTest(unittest.TestCase):
    def test_remainder_forms_last_wave(self):
        fleet = [f"veh-{i}" for i in range(10)]
        self.assertEqual([len(w) for w in split_waves(fleet, [1, 3])], [1, 3, 6])

    def test_small_fleet(self):
        self.assertEqual(split_waves(["a", "b"], [5, 5]), [["a", "b"]])


class WaitForAcksTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock()

    def test_immediate_ack_needs_no_sleep(self):
        reg = FakeRegistry(self.clock, {"a": 0, "b": 0})
        self.assertEqual(wait_for_acks(["a", "b"], "7.2.0", reg, 10, clock=self.clock), 0)
        self.assertEqual(self.clock.sleeps, [])

    def test_slow_device_is_seen_within_deadline(self):
        reg = FakeRegistry(self.clock, {"a": 2, "b": 20})
        # the registry can take a while to converge on a large wave
        waited = wait_for_acks(["a", "b"], "7.2.0", reg, timeout_s=60,
                               policy=PollPolicy(1.0, 5.0), clock=self.clock)
        self.assertGreaterEqual(waited, 20)

    def test_missing_device_halts_rollout(self):
        reg = FakeRegistry(self.clock, {"a": 0, "b": 10_000})
        with self.assertRaises(WaveTimeout) as ctx:
            wait_for_acks(["a", "b"], "7.2.0", reg, timeout_s=30, clock=self.clock)
        self.assertEqual(ctx.exception.pending, {"b"})


if __name__ == "__main__":
    unittest.main()
