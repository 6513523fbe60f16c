/// Sample bodies of `GET /api/oauth/usage`, in the shapes the endpoint has been seen to return.
public enum UsageFixtures {
    /// Flat windows, microseconds and offsets.
    public static let flat = """
        {"five_hour":{"utilization":12.5,"resets_at":"2026-11-22T18:00:00.123456+00:00"},
         "seven_day":{"utilization":40.0,"resets_at":"2026-11-27T09:00:00.654321+00:00"},
         "seven_day_sonnet":{"utilization":3.0,"resets_at":"2026-11-27T09:00:00.000001+00:00"},
         "seven_day_opus":null,"seven_day_oauth_apps":null,
         "extra_usage":{"is_enabled":true,"monthly_limit":5000,"used_credits":120,"utilization":2.4}}
        """

    /// Newer accounts: `limits[]` carries the data, the flat windows are null.
    public static let limitsOnly = """
        {"five_hour":null,"seven_day":null,"seven_day_sonnet":null,"seven_day_opus":null,
         "limits":[
          {"kind":"session","group":"session","percent":21,"severity":"ok","resets_at":"2026-11-22T18:00:00.5+00:00","is_active":true},
          {"kind":"weekly_all","group":"weekly","percent":55,"severity":"warning","resets_at":"2026-11-27T09:00:00Z","is_active":true},
          {"kind":"weekly_scoped","group":"sonnet","percent":7,"severity":"ok","resets_at":"2026-11-27T09:00:00Z","scope":{"model":{"display_name":"Sonnet"}},"is_active":true}
         ],
         "spend":{"currency":"USD"}}
        """

    /// Both shapes at once; `limits[]` wins field by field.
    public static let mixed = """
        {"five_hour":{"utilization":10.0,"resets_at":"2026-11-22T18:00:00.000000+00:00"},
         "seven_day":{"utilization":30.0,"resets_at":"2026-11-27T09:00:00.000000+00:00"},
         "limits":[{"kind":"session","percent":11,"severity":"ok","resets_at":null}]}
        """

    /// Every window null.
    public static let allNull = """
        {"five_hour":null,"seven_day":null,"seven_day_sonnet":null,"seven_day_opus":null,
         "seven_day_oauth_apps":null,"extra_usage":null}
        """

    /// Codename keys next to the known ones.
    public static let codenames = """
        {"five_hour":{"utilization":5.0,"resets_at":"2026-11-22T18:00:00.000000+00:00"},
         "iguana_necktie":null,
         "seven_day_walrus":{"utilization":1.0,"resets_at":"2026-11-27T09:00:00+01:00"},
         "extra_usage":null}
        """
}
