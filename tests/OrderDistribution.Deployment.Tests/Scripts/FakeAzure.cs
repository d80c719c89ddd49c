namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Stand-ins for az and azd on PATH, so the Azure scripts' argument handling runs for real without Azure:
/// azd keeps an azd environment in a file (env get-values, env set, env unset) and records each call; az records
/// each call (one line of arguments) and answers what it was told.
/// </summary>
internal sealed class FakeAzure : IDisposable
{
    public const string Subscription = "00000000-1111-2222-3333-444444444444";

    private readonly string _dir = Directory.CreateTempSubdirectory("fake-azure-").FullName;
    private readonly List<(string Match, string Answer, int ExitCode)> _answers = [];

    public FakeAzure(bool extensionsInstalled = true)
    {
        File.WriteAllText(AzdEnvironment, $"""
            AZURE_ENV_NAME="fake"
            AZURE_LOCATION="eastus"
            AZURE_SUBSCRIPTION_ID="{Subscription}"
            AZURE_RESOURCE_GROUP="rg-fake"
            APPLICATIONINSIGHTS_NAME="appi-fake"
            LOG_ANALYTICS_WORKSPACE_ID="workspace-fake"
            SERVICEBUS_NAMESPACE="sb-fake"
            SERVICEBUS_NAMESPACE_FQDN="sb-fake.servicebus.windows.net"
            STORAGE_BLOB_ENDPOINT="https://stfake.blob.core.windows.net/"

            """);
        Write("azd", $$"""
            #!/bin/sh
            printf '%s\n' "$*" >> '{{AzdLog}}'
            state='{{AzdEnvironment}}'
            case "$1 $2" in
              'env set')
                grep -v "^$3=" "$state" > "$state.new"; printf '%s="%s"\n' "$3" "$4" >> "$state.new"
                mv "$state.new" "$state" ;;
              'env unset')
                if [ -f '{{NoUnsetMarker}}' ]; then echo 'Error: unknown command "unset" for "azd env"' >&2; exit 1; fi
                grep -v "^$3=" "$state" > "$state.new"; mv "$state.new" "$state" ;;
              *) cat "$state" ;;
            esac
            """);
        ExtensionsInstalled = extensionsInstalled;
    }

    public bool ExtensionsInstalled { get; }

    private string Log => Path.Combine(_dir, "az.log");

    private string AzdLog => Path.Combine(_dir, "azd.log");

    private string AzdEnvironment => Path.Combine(_dir, "azd.env");

    private string NoUnsetMarker => Path.Combine(_dir, "azd-has-no-unset");

    public List<string> Calls => File.Exists(Log) ? File.ReadAllLines(Log).ToList() : [];

    public List<string> AzdCalls => File.Exists(AzdLog) ? File.ReadAllLines(AzdLog).ToList() : [];

    /// <summary>
    /// The azd environment as the fake azd keeps it: each line KEY="VALUE", the value exactly as set.
    /// </summary>
    public Dictionary<string, string> AzdValues =>
        File.ReadAllText(AzdEnvironment).Split('\n').Where(line => line.Contains('=', StringComparison.Ordinal))
            .Select(line => line.Split('=', 2))
            .ToDictionary(parts => parts[0], parts => parts[1][1..^1]);

    public FakeAzure SetAzdValue(string key, string value)
    {
        File.WriteAllLines(AzdEnvironment,
            File.ReadAllLines(AzdEnvironment).Where(l => !l.StartsWith(key + "=", StringComparison.Ordinal))
            .Append($"{key}=\"{value}\""));
        return this;
    }

    public FakeAzure RemoveAzdValue(string key)
    {
        File.WriteAllLines(AzdEnvironment,
            File.ReadAllLines(AzdEnvironment).Where(l => !l.StartsWith(key + "=", StringComparison.Ordinal)));
        return this;
    }

    /// <summary>An azd from before <c>azd env unset</c>: the command fails as an unknown one.</summary>
    public FakeAzure WithoutAzdEnvUnset()
    {
        File.WriteAllText(NoUnsetMarker, "");
        return this;
    }

    /// <summary>
    /// When an az call's arguments contain <paramref name="match"/>, it prints <paramref name="answer"/>.
    /// </summary>
    public FakeAzure Respond(string match, string answer)
    {
        _answers.Add((match, answer, 0));
        return this;
    }

    /// <summary>
    /// When an az call's arguments contain <paramref name="match"/>, it fails with an error on stderr.
    /// </summary>
    public FakeAzure Fail(string match, string error)
    {
        _answers.Add((match, error, 1));
        return this;
    }

    public (int ExitCode, string Output) Run(string program, params string[] arguments) =>
        Run(TimeSpan.FromSeconds(60), program, arguments);

    /// <summary>Runs a program with the fakes first on PATH, for at most <paramref name="limit"/>.</summary>
    public (int ExitCode, string Output) Run(TimeSpan limit, string program, params string[] arguments)
    {
        var cases = string.Concat(_answers.Select(a => a.ExitCode == 0
            ? $"  *'{Quoted(a.Match)}'*) printf '%s\\n' '{Quoted(a.Answer)}' ;;\n"
            : $"  *'{Quoted(a.Match)}'*) printf 'ERROR: %s\\n' '{Quoted(a.Answer)}' >&2; exit {a.ExitCode} ;;\n"));
        Write("az", $$"""
            #!/bin/sh
            # One write per call: the burst script's replica sampler calls az beside the main line.
            printf '%s\n' "$(printf '%s' "$*" | tr '\n' ' ')" >> '{{Log}}'
            case "$*" in
              'extension show'*) exit {{(ExtensionsInstalled ? 0 : 1)}} ;;
            {{cases}}  *'app-insights query'*) echo '{"tables":[{"columns":[],"rows":[]}]}' ;;
              *'log-analytics query'*) echo '[]' ;;
              *) echo 0 ;;
            esac
            """);
        var path = $"PATH={_dir}{Path.PathSeparator}{Environment.GetEnvironmentVariable("PATH")}";
        return program == "env"
            ? Repo.Run("env", limit, [path, .. arguments])
            : Repo.Run("env", limit, [path, program, .. arguments]);
    }

    // Inside the fake's single quotes: a match may hold the quotes of a JMESPath query.
    private static string Quoted(string text) => text.Replace("'", "'\\''", StringComparison.Ordinal);

    /// <summary>The fake's folder (removed with it).</summary>
    public string Folder => _dir;

    /// <summary>Another program on the fake's PATH, e.g. a stand-in for dapr.</summary>
    public FakeAzure WithProgram(string name, string script)
    {
        Write(name, script);
        return this;
    }

    /// <summary>
    /// A stand-in for dotnet that builds nothing and runs <c>dotnet .../order-load.dll ARGS</c> as order-load built
    /// beside these tests, with ARGS: what the scripts ask the load tool (not a burst: dapr's stand-in takes that) is
    /// answered by the real one.
    /// </summary>
    public FakeAzure WithLoadTool() => WithProgram("dotnet", $$"""
        #!/bin/sh
        case "$1" in */order-load.dll) ;; *) exit 0 ;; esac
        shift
        exec '{{Repo.FindOnPath("dotnet")}}' '{{Path.Combine(AppContext.BaseDirectory, "order-load.dll")}}' "$@"
        """);

    /// <summary>A file in the fake's folder (removed with it), e.g. a .env for the sync script.</summary>
    public string WriteFile(string name, string text)
    {
        var file = Path.Combine(_dir, name);
        File.WriteAllText(file, text);
        return file;
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    private void Write(string name, string script)
    {
        var file = Path.Combine(_dir, name);
        File.WriteAllText(file, script + "\n");
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(file, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
    }
}
