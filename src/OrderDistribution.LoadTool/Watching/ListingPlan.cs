namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// Which name prefixes the next look lists, under one prefix of an outbox: the cut through the digits below it that
/// costs the store least, where a listing call costs as much as a given number of names and every order already seen
/// under a prefix listed is a name listed again. A prefix whose orders are all in is never listed; one whose awaited
/// orders sit in a few of its digits is replaced by those; one whose awaited orders are spread over all of them is
/// listed whole, in one call, rather than in many calls that would return the same names.
/// </summary>
public static class ListingPlan
{
    /// <param name="names">The outbox's expected order names (decimal ids), sorted ordinally.</param>
    /// <param name="isIn">Whether the order at an index of <paramref name="names"/> has been seen.</param>
    /// <param name="callCost">What one listing call costs the store, in names listed.</param>
    /// <param name="pageSize">Names a listing call returns at most.</param>
    /// <returns>The prefixes to list; none when every order under <paramref name="prefix"/> is in.</returns>
    public static IReadOnlyList<string> Of(string[] names, Func<int, bool> isIn, string prefix, long callCost,
        int pageSize)
    {
        var low = LowerBound(names, prefix);
        var high = low;
        while (high < names.Length && names[high].StartsWith(prefix, StringComparison.Ordinal))
        {
            high++;
        }

        var plan = new List<string>();
        Cost(names, isIn, low, high, prefix, callCost, pageSize, plan);
        return plan;
    }

    /// <summary>
    /// The least cost of finding the awaited orders among <paramref name="names"/>[low..high), all under
    /// <paramref name="prefix"/>; the prefixes that cost it are added to <paramref name="plan"/>.
    /// </summary>
    private static long Cost(
        string[] names, Func<int, bool> isIn, int low, int high, string prefix, long callCost, int pageSize,
        List<string> plan)
    {
        long seen = 0;
        var awaited = 0;
        var awaitedHere = false;
        for (var i = low; i < high; i++)
        {
            if (isIn(i))
            {
                seen++;
            }
            else
            {
                awaited++;
                awaitedHere |= names[i].Length == prefix.Length;
            }
        }

        if (awaited == 0)
        {
            return 0;
        }

        // A listing returns a page of at most pageSize names per call.
        var listed = seen + awaited;
        var whole = (callCost * (1 + ((listed - 1) / pageSize))) + seen;
        if (awaitedHere)
        {
            // An order named just the prefix: no longer prefix finds it.
            plan.Add(prefix);
            return whole;
        }

        var mark = plan.Count;
        long split = 0;
        var start = low;
        while (start < high)
        {
            if (names[start].Length == prefix.Length)
            {
                // Seen, named just the prefix: in no longer prefix.
                start++;
                continue;
            }

            var digit = names[start][prefix.Length];
            var end = start;
            while (end < high && names[end][prefix.Length] == digit)
            {
                end++;
            }

            split += Cost(names, isIn, start, end, names[start][..(prefix.Length + 1)], callCost, pageSize,
                plan);
            if (split > whole)
            {
                plan.RemoveRange(mark, plan.Count - mark);
                plan.Add(prefix);
                return whole;
            }

            start = end;
        }

        return split;
    }

    private static int LowerBound(string[] names, string prefix)
    {
        var index = Array.BinarySearch(names, prefix, StringComparer.Ordinal);
        return index >= 0 ? index : ~index;
    }
}
