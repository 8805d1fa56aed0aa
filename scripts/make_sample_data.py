"""Regenerates the bundled sample dataset (deterministic). Not needed to run anything: the CSVs are committed."""

import csv
import random
from datetime import datetime, timedelta
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "dags_example" / "data"


def main() -> None:
    rng = random.Random(42)
    OUT.mkdir(parents=True, exist_ok=True)
    products = [f"product_{i}" for i in range(1, 6)]
    with open(OUT / "products.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "name", "price"])
        for i, p in enumerate(products, 1):
            w.writerow([p, f"Product {i}", round(5 + i * 1.5, 2)])
    base = datetime(2026, 11, 1, 0, 0, 0)
    with open(OUT / "purchase_events.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "product_id", "amount", "email_address", "event_type", "updated_at"])
        for i in range(1, 1001):
            product = rng.choice(products)
            amount = round(rng.uniform(0.5, 9.5), 2)
            email = f"user{rng.randint(1, 400)}@example.com"
            if i % 97 == 0:
                email = "not-an-email"  # a few bad addresses: a warn-severity check flags them
            if i % 250 == 0:
                amount = ""  # some missing amounts
            event = rng.choice(["purchase", "purchase", "purchase", "refund"])
            ts = base + timedelta(minutes=30 * i)
            w.writerow([i, product, amount, email, event, ts.strftime("%Y-%m-%d %H:%M:%S")])


if __name__ == "__main__":
    main()
