#!/usr/bin/env python3
"""Places orders against a running service for a fixed time: each order fetches a one-time token,
then POSTs the order with it. Prints throughput and latency percentiles of POST /orders."""
import base64, http.client, json, sys, threading, time

host, port, clients, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
auth = "Basic " + base64.b64encode(b"alice:alice").decode()
body = json.dumps({"currency": "CNY", "items": [{"sku": "ABC-1", "quantity": 2, "unitPrice": "12.50"}]})
latencies, failures, lock = [], [0], threading.Lock()
deadline = time.monotonic() + seconds

def client():
    connection = http.client.HTTPConnection(host, port, timeout=30)
    mine, failed = [], 0
    while time.monotonic() < deadline:
        connection.request("POST", "/orders/token", headers={"Authorization": auth})
        answer = connection.getresponse()
        token = json.loads(answer.read())["token"]
        started = time.perf_counter()
        connection.request("POST", "/orders", body=body,
                           headers={"Authorization": auth, "Content-Type": "application/json", "Order-Token": token})
        answer = connection.getresponse()
        answer.read()
        if answer.status == 201:
            mine.append(time.perf_counter() - started)
        else:
            failed += 1
    with lock:
        latencies.extend(mine)
        failures[0] += failed

threads = [threading.Thread(target=client) for _ in range(clients)]
began = time.monotonic()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.monotonic() - began
latencies.sort()
def pct(p):
    return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 2) if latencies else None
print(f"{len(latencies) / elapsed:.1f} orders/s ({len(latencies)} in {elapsed:.1f} s), "
      f"POST /orders p50 {pct(0.50)} ms, p99 {pct(0.99)} ms, {failures[0]} failures")
