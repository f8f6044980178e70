"""Games the service makes itself: the tournament simulator and the balance report (the demo data
`empyrean up` loads is a simulated league and a Titans event: services.cli.demo)."""
