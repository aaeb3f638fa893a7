from flask import Flask

import service.handlers as api


def create_app():
    server = Flask(__name__)

    @server.route("/orders")
    def orders():
        return api.create_order("c-1")

    return server
