def validate(order) -> bool:
    return bool(order.customer)
