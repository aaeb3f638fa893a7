from .proto import orders_pb2


def create_order(customer: str) -> orders_pb2.Order:
    return orders_pb2.Order(customer=customer)


class OrderHandler:
    def handle(self, order):
        return create_order(order.customer)
