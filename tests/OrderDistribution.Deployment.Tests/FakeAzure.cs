namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Stand-ins for az and azd on PATH, so the Azure scripts' argument handling runs for real without Azure:
/// azd prints an azd environment; az records each call (one line of arguments) and answers what it was told.
/// </summary>
internal sealed class FakeAzure : IDisposable
{
    public const string Subscription = "00000000-1111-2222-3333-444444444444";

    private readonly string _dir = Directory.CreateTempSubdirectory("fake-azure-").FullName;
    private readonly List<(string Match, string Answer)> _answers = [];

    public FakeAzure(bool extensionsInstalled = true)
    {
        Write("azd", $"""
            #!/bin/sh
            cat <<'VALUES'
            AZURE_SUBSCRIPTION_ID="{Subscription}"
            AZURE_RESOURCE_GROUP="rg-fake"
            APPLICATIONINSIGHTS_NAME="appi-fake"
            LOG_ANALYTICS_WORKSPACE_ID="workspace-fake"
            SERVICEBUS_NAMESPACE="sb-fake"
            SERVICEBUS_NAMESPACE_FQDN="sb-fake.servicebus.windows.net"
            STORAGE_BLOB_ENDPOINT="https://stfake.blob.core.windows.net/"
            VALUES
            """);
        ExtensionsInstalled = extensionsInstalled;
    }

    public bool ExtensionsInstalled { get; }

    private string Log => Path.Combine(_dir, "az.log");

    public List<string> Calls => File.Exists(Log) ? File.ReadAllLines(Log).ToList() : [];

    /// <summary>When an az call's arguments contain <paramref name="match"/>, it prints <paramref name="answer"/>.</summary>
    public FakeAzure Respond(string match, string answer)
    {
        _answers.Add((match, answer));
        return this;
    }

    public (int ExitCode, string Output) Run(string program, params string[] arguments)
    {
        var cases = string.Concat(_answers.Select(a => $"  *'{a.Match}'*) printf '%s\\n' '{a.Answer}' ;;\n"));
        Write("az", $$"""
            #!/bin/sh
            printf '%s' "$*" | tr '\n' ' ' >> '{{Log}}'; echo >> '{{Log}}'
            case "$*" in
              'extension show'*) exit {{(ExtensionsInstalled ? 0 : 1)}} ;;
            {{cases}}  *'app-insights query'*) echo '{"tables":[{"columns":[],"rows":[]}]}' ;;
              *'log-analytics query'*) echo '[]' ;;
              *) echo 0 ;;
            esac
            """);
        var path = $"PATH={_dir}{Path.PathSeparator}{Environment.GetEnvironmentVariable("PATH")}";
        return program == "env"
            ? Repo.Run("env", [path, .. arguments])
            : Repo.Run("env", [path, program, .. arguments]);
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
