namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Stand-ins for rabbitmqctl and redis-cli on PATH, as scripts/run-local.sh --missing-consumers asks them: each queue
/// has the consumers it was given (<c>list_queues ... name consumers</c>), each stream the consumer groups it was
/// given (<c>XINFO GROUPS</c>); a queue or stream given nothing has none.
/// </summary>
internal sealed class FakeBrokers
{
    private readonly string _folder;

    public FakeBrokers(string folder)
    {
        _folder = folder;
        Write("rabbitmqctl", $$"""
            #!/usr/bin/env bash
            cat '{{Queues}}' 2>/dev/null
            exit 0
            """);
        Write("redis-cli", $$"""
            #!/usr/bin/env bash
            stream="${*: -1}"
            found=false
            while read -r name group; do
              if [[ "$name" == "$stream" ]]; then printf 'name\n%s\nconsumers\n1\npending\n0\n' "$group"; found=true; fi
            done < <(cat '{{Groups}}' 2>/dev/null)
            $found || echo "ERR no such key"
            """);
    }

    /// <summary>
    /// Every input binding's queue with <paramref name="consumers"/>, every stream with the group of the app that
    /// consumes it.
    /// </summary>
    public FakeBrokers AllReady(int consumers = 4)
    {
        foreach (var input in Contract.Bindings.Where(b => b.Direction == "input"))
        {
            Consumers(input.Queue, consumers).Group(input.Queue, input.AppId);
        }

        return this;
    }

    public FakeBrokers Consumers(string queue, int count)
    {
        File.WriteAllLines(Queues,
            [.. Lines(Queues).Where(l => !l.StartsWith(queue + "\t", StringComparison.Ordinal)), $"{queue}\t{count}"]);
        return this;
    }

    public FakeBrokers Group(string stream, string group)
    {
        File.AppendAllLines(Groups, [$"{stream} {group}"]);
        return this;
    }

    public FakeBrokers WithoutGroups(string stream)
    {
        File.WriteAllLines(Groups,
            [.. Lines(Groups).Where(l => !l.StartsWith(stream + " ", StringComparison.Ordinal))]);
        return this;
    }

    private string Queues => Path.Combine(_folder, "fake-queues");

    private string Groups => Path.Combine(_folder, "fake-groups");

    private static string[] Lines(string file) => File.Exists(file) ? File.ReadAllLines(file) : [];

    private void Write(string name, string script)
    {
        var file = Path.Combine(_folder, name);
        File.WriteAllText(file, script + "\n");
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(file, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
    }
}
