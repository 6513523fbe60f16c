print("headroom")
