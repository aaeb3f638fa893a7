"""A tiny shopping cart with a discount bug.

Run: python3 cart.py
The sample cart costs 100.00; with 10% off the total should be 90.00.
"""


class Cart:
    def __init__(self):
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def subtotal(self):
        total = 0.0
        for _name, price, qty in self.items:
            total += price * qty
        return total


def apply_discount(amount, percent):
    """Return `amount` with `percent` per cent taken off."""
    discount = amount * percent / 100
    return discount


def main():
    cart = Cart()
    cart.add("book", 40.0)
    cart.add("pen", 5.0, qty=4)
    cart.add("lamp", 40.0)
    subtotal = cart.subtotal()
    total = apply_discount(subtotal, 10)
    print("subtotal %.2f, total after 10%% off %.2f (expected 90.00)" % (subtotal, total))


if __name__ == "__main__":
    main()
