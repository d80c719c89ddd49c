using System.Globalization;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;

namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// What a watch has seen so far, kept once per blob: which expected orders are stored (and where, and when), which
/// twice, which poison, and which blobs are of another burst. Its memory grows with the orders expected, never with how
/// often or how much was listed.
/// Expected ids are kept per outbox as sorted decimal names, so that the watcher can ask which prefixes still hold
/// awaited orders, and list only those (<see cref="ListingPlan"/>).
/// </summary>
public sealed class WatchTally
{
    private readonly WatchExpectation _expected;
    private readonly IReadOnlyList<string> _outboxes;
    private readonly Dictionary<string, string[]> _namesOf = new(StringComparer.Ordinal);
    private readonly Dictionary<string, long[]> _idsOf = new(StringComparer.Ordinal);
    private readonly Dictionary<string, bool[]> _seenIn = new(StringComparer.Ordinal);
    private readonly Dictionary<long, DateTimeOffset> _storedAt;
    private readonly HashSet<long> _duplicated = [];
    private readonly Dictionary<string, int> _countPer;
    private readonly HashSet<long> _poisonStored = [];
    private readonly HashSet<(string Container, long Id)> _strays = [];
    private readonly HashSet<(string Container, long Id)> _others = [];
    private bool _storedAtFromMetadata = true;
    private DateTimeOffset? _first;
    private DateTimeOffset? _last;

    public WatchTally(WatchExpectation expected, IReadOnlyList<string> outboxes)
    {
        _expected = expected;
        _outboxes = outboxes;
        _countPer = outboxes.ToDictionary(o => o, _ => 0, StringComparer.Ordinal);
        // Sized once: at 150,000 orders each doubling would leave the last one's arrays behind (docs/load-tool.md).
        _storedAt = new Dictionary<long, DateTimeOffset>(expected.OutboxOf.Count);
        foreach (var outbox in outboxes)
        {
            var names = expected.OutboxOf.Where(e => e.Value == outbox)
                .Select(e => e.Key.ToString(CultureInfo.InvariantCulture)).ToArray();
            Array.Sort(names, StringComparer.Ordinal);
            _namesOf[outbox] = names;
            _idsOf[outbox] = [.. names.Select(n => long.Parse(n, CultureInfo.InvariantCulture))];
            _seenIn[outbox] = new bool[names.Length];
        }
    }

    public BurstId Burst => _expected.Burst;

    public int Stored => _storedAt.Count;

    /// <summary>How many valid orders are expected as blobs.</summary>
    public int Expected => _expected.OutboxOf.Count;

    public bool Complete => Stored == Expected;

    /// <summary>
    /// Orders stored per second so far by the blobs' own times (Last-Modified, whole seconds, in a names-only listing),
    /// independent of when the watch looked; null before two.
    /// </summary>
    public double? RatePerSecond =>
        Stored >= 2 && _first is { } first && _last is { } last && (last - first).TotalSeconds is > 0.2 and var span
            ? (Stored - 1) / span
            : null;

    /// <summary>Whether a blob of another burst was listed: that burst shared the store with this one.</summary>
    public bool MetOtherBurst => _others.Count > 0;

    /// <summary>The blobs of other bursts listed, per outbox and burst: "express-outbox: 37 of burst 512345".</summary>
    public string OtherBursts() => string.Join("; ", _others
        .GroupBy(o => (o.Container, Burst: BurstId.Of(o.Id)))
        .OrderBy(g => g.Key.Container, StringComparer.Ordinal).ThenBy(g => g.Key.Burst.Value)
        .Select(g =>
            string.Create(CultureInfo.InvariantCulture, $"{g.Key.Container}: {g.Count()} of burst {g.Key.Burst}")));

    /// <summary>
    /// Forgets what was seen, for a listing that starts over, keeping what was allocated: a second tally beside this
    /// one would hold every order twice.
    /// </summary>
    public void Restart()
    {
        foreach (var outbox in _outboxes)
        {
            Array.Clear(_seenIn[outbox]);
            _countPer[outbox] = 0;
        }

        _storedAt.Clear();
        _duplicated.Clear();
        _poisonStored.Clear();
        _strays.Clear();
        _others.Clear();
        _storedAtFromMetadata = true;
        _first = _last = null;
    }

    /// <summary>Counts one listed blob once, however often it is listed.</summary>
    public void Add(OutboxBlob blob)
    {
        if (OrderBlob.OrderIdOf(blob.Name) is not { } id)
        {
            return;
        }

        if (!_expected.Burst.Holds(id))
        {
            _others.Add((blob.Container, id));
            return;
        }

        if (_expected.Poison.Contains(id))
        {
            _poisonStored.Add(id);
            return;
        }

        if (!_expected.OutboxOf.ContainsKey(id) || !_namesOf.TryGetValue(blob.Container, out var names))
        {
            return;
        }

        var index = Array.BinarySearch(names, id.ToString(CultureInfo.InvariantCulture), StringComparer.Ordinal);
        if (index >= 0 ? _seenIn[blob.Container][index] : !_strays.Add((blob.Container, id)))
        {
            return;
        }

        if (index >= 0)
        {
            _seenIn[blob.Container][index] = true;
        }

        // A copy in the other outbox (a routing fault) is counted too: as stored, and as a duplicate if it is one.
        _countPer[blob.Container]++;
        _storedAtFromMetadata &= blob.StoredAt is not null;
        var at = blob.StoredOrModified;
        // Each outbox counts an id once, so an id met a second time is a copy in the other outbox.
        if (!_storedAt.TryAdd(id, at))
        {
            _duplicated.Add(id);
            _storedAt[id] = _storedAt[id] < at ? _storedAt[id] : at;
        }

        _last = _last is { } last && last > at ? last : at;
        _first = _first is { } first && first < at ? first : at;
    }

    /// <summary>
    /// The prefixes to list instead of <paramref name="prefix"/> next time (<see cref="ListingPlan"/>); none once its
    /// orders are all in.
    /// </summary>
    /// <param name="callCost">What one listing call costs the store, in names listed.</param>
    /// <param name="pageSize">Names a listing call returns at most.</param>
    public IReadOnlyList<string> NextPrefixes(string outbox, string prefix, long callCost, int pageSize) =>
        ListingPlan.Of(_namesOf[outbox], i => IsIn(outbox, i), prefix, callCost, pageSize);

    /// <summary>
    /// Whether the expected order at <paramref name="index"/> of the outbox's names was seen there (or, routed wrong,
    /// in the other outbox).
    /// </summary>
    private bool IsIn(string outbox, int index) =>
        _seenIn[outbox][index] || _storedAt.ContainsKey(_idsOf[outbox][index]);

    /// <param name="listingCalls">Listing requests the watch made.</param>
    /// <param name="namesListed">Blob names they returned, counted every time they were returned.</param>
    public WatchReport Report(DateTimeOffset scheduledAt, int listingCalls = 0, long namesListed = 0)
    {
        // One array sorted in place: Order() would copy every stored time twice more.
        var storedTimes = new DateTimeOffset[_storedAt.Count];
        _storedAt.Values.CopyTo(storedTimes, 0);
        Array.Sort(storedTimes);
        return new(_expected.OutboxOf.Count,
            _outboxes.ToDictionary(o => o, o => _countPer[o]),
            _expected.OutboxOf.Keys.Where(id => !_storedAt.ContainsKey(id)).Order().ToList(),
            [.. _duplicated.Order()],
            scheduledAt,
            _last)
        {
            PoisonExpected = _expected.Poison.Count,
            PoisonStored = [.. _poisonStored.Order()],
            StoredTimes = storedTimes,
            StoredAtFromMetadata = _storedAtFromMetadata,
            ListingCalls = listingCalls,
            NamesListed = namesListed,
        };
    }

    /// <summary>The report of a whole listing at once.</summary>
    public static WatchReport Of(WatchExpectation expected, IReadOnlyList<string> outboxes, DateTimeOffset scheduledAt,
        IEnumerable<OutboxBlob> blobs)
    {
        var tally = new WatchTally(expected, outboxes);
        foreach (var blob in blobs)
        {
            tally.Add(blob);
        }

        return tally.Report(scheduledAt);
    }
}
