print("headroom-fetch")
