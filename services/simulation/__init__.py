"""Games the service makes itself: the tournament simulator, the balance report and the demo data."""
