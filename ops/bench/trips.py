#!/usr/bin/env python3
"""Counts the round trips a client makes to a server through it: a TCP proxy.

Usage: trips.py CONTROL_PORT NAME=LISTEN_PORT:TARGET_PORT [NAME=LISTEN_PORT:TARGET_PORT ...]

Each NAME listens on 127.0.0.1:LISTEN_PORT and forwards to 127.0.0.1:TARGET_PORT. A round trip is
what the client sends before the server answers: the first bytes on a connection, and the first
after each answer. Pipelined commands sent together count once, as they cost one wait. Connecting to
CONTROL_PORT reads the counts so far, one "NAME TRIPS" line each.
"""
import asyncio
import sys

trips = {}


async def pump(reader, writer, on_data):
    try:
        while data := await reader.read(65536):
            on_data()
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


def proxy(name, target_port):
    async def handle(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            client_writer.close()
            return
        answered = [True]  # the client's next bytes start a round trip

        def sent():
            if answered[0]:
                trips[name] += 1
                answered[0] = False

        def answer():
            answered[0] = True

        await asyncio.gather(pump(client_reader, server_writer, sent), pump(server_reader, client_writer, answer))

    return handle


async def report(reader, writer):
    writer.write("".join(f"{name} {count}\n" for name, count in trips.items()).encode())
    await writer.drain()
    writer.close()


async def main(control_port, routes):
    servers = [await asyncio.start_server(report, "127.0.0.1", control_port)]
    for route in routes:
        name, ports = route.split("=")
        listen_port, target_port = (int(port) for port in ports.split(":"))
        trips[name] = 0
        servers.append(await asyncio.start_server(proxy(name, target_port), "127.0.0.1", listen_port))
    await asyncio.gather(*(server.serve_forever() for server in servers))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2:]))
