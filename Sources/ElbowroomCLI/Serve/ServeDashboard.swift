import ElbowroomCore

/// `GET /`: the dashboard (`DashboardPage`), from the caches and histories of every account.
extension ServeContent {
    /// The page, with the headers that keep it to itself. Fetches start as for `/v1/usage` (the
    /// caller asks that body first: the same trigger, the same respawn guard).
    func dashboard() -> HTTPResponse {
        let config = (try? Config.load(paths: context.paths)) ?? Config()
        let now = context.now()
        var accounts: [DashboardPage.Account] = []
        // Every account, else the environment's own (`AccountSelection`), as `/v1/usage` serves them.
        let chosen = (try? AccountSelection(choosing: nil, config: config, context: context))?.parts ?? []
        for chosenPart in chosen {
            let account = chosenPart.account, part = chosenPart.context
            var cache: CacheFile?
            if case .loaded(let found) = CacheStore(paths: part.paths).read() { cache = found }
            let history = HistoryStore(paths: part.paths).load()
            var view = UsageView(cache: cache, now: now, config: config, history: history, provider: part.paths.provider)
            // No path in what is served (`ServedText`): every string from the data that the page
            // shows, cleaned here (the page's own markup is full of slashes).
            let home = context.environment.home
            view.error = view.error.map { ServedText.withoutPaths($0, home: home) }
            for i in view.windows.indices {
                view.windows[i].label = ServedText.withoutPaths(view.windows[i].label, home: home)
                view.windows[i].name = ServedText.withoutPaths(view.windows[i].name, home: home)
            }
            let title = ServedText.withoutPaths(account.map { $0.label } ?? view.agent, home: home)
            // 90 days of daily peaks: the daily summaries, and the detail for days not summed up yet.
            let historyFile = HistoryStore(paths: part.paths).file
            let archive = DailyArchive(historyFile: historyFile)
            let end = Int64(now.timeIntervalSince1970.rounded(.down))
            let days = archive.days(from: DailySummary.day(of: end - 90 * 86400), now: end,
                                    stored: (try? archive.read()) ?? DailySummary.File(), samples: history.samples,
                                    log: AttributionLog(historyFile: historyFile).load()).days
            accounts.append(DashboardPage.Account(title: title, view: view, samples: history.samples, days: days))
        }
        return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: DashboardPage.html(accounts, now: now),
                            headers: "Content-Security-Policy: \(DashboardPage.csp)\r\nReferrer-Policy: no-referrer\r\n"
                                + "X-Frame-Options: DENY\r\nCross-Origin-Resource-Policy: same-origin\r\n")
    }
}
