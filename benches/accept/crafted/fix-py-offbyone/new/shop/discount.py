def apply_discount(order, code):
    """Apply a discount code to an order and return the new total."""
    code = code.strip().upper()
    if code not in DISCOUNTS:
        raise InvalidCode(code)
    rate = DISCOUNTS[code]
    total = 0
    for line in order.lines:
        total += line.price * line.qty
    if order.customer.is_member:
        rate += MEMBER_BONUS
    return round(total * (1 - min(rate, MAX_RATE)), 2)
