using System.Globalization;
using YamlDotNet.RepresentationModel;

namespace OrderDistribution.Deployment.Tests;

/// <summary>A Dapr multi-app run file (dapr.yaml), with each app's settings merged as the CLI does.</summary>
internal sealed class DaprRunFile
{
    public const string PubSub = "dapr.yaml";
    public const string Bindings = "dapr.bindings.yaml";

    /// <summary>Run file and the components folder it must load.</summary>
    public static readonly (string File, string Folder)[] Models =
    [
        (PubSub, "components-pubsub"),
        (Bindings, "components-bindings"),
    ];

    private DaprRunFile(string path, YamlMappingNode root)
    {
        Path = path;
        Root = root;
        Common = root.Mapping("common") ?? new YamlMappingNode();
        Apps = root.Sequence("apps").Cast<YamlMappingNode>().Select(app => new App(this, app)).ToList();
    }

    /// <summary>Full path of the file; relative paths in it resolve from its folder.</summary>
    public string Path { get; }

    public YamlMappingNode Root { get; }

    public YamlMappingNode Common { get; }

    public IReadOnlyList<App> Apps { get; }

    public static DaprRunFile Load(string relative) => LoadFullPath(Repo.PathOf(relative));

    public static DaprRunFile LoadFullPath(string path)
    {
        Assert.True(File.Exists(path), $"{path} does not exist");
        return new DaprRunFile(path, Yaml.LoadMapping(File.ReadAllText(path)));
    }

    public string Resolve(string relative) =>
        System.IO.Path.GetFullPath(System.IO.Path.Combine(System.IO.Path.GetDirectoryName(Path)!, relative));

    public App AppOf(string appId) =>
        Apps.SingleOrDefault(a => a.Id == appId) ?? throw new Xunit.Sdk.XunitException($"{Path} has no app {appId}");

    internal sealed class App(DaprRunFile file, YamlMappingNode node)
    {
        public string Id => node.Scalar("appID") ?? "";

        public string DirPath => file.Resolve(node.Scalar("appDirPath") ?? "");

        public int AppPort => Int(node, "appPort");

        public int DaprHttpPort => Int(node, "daprHTTPPort");

        public int DaprGrpcPort => Int(node, "daprGRPCPort");

        public string? this[string key] => node.Scalar(key);

        public IReadOnlyList<string> Command => node.Strings("command");

        /// <summary>App env over common env, as the CLI merges them.</summary>
        public Dictionary<string, string> Env
        {
            get
            {
                var env = file.Common.Mapping("env").ScalarMap();
                foreach (var (key, value) in node.Mapping("env").ScalarMap())
                {
                    env[key] = value;
                }

                return env;
            }
        }

        /// <summary>Resource folders: the app's own, else common's (apps[i] wins over common).</summary>
        public IReadOnlyList<string> ResourcesPaths
        {
            get
            {
                var own = node.Strings("resourcesPaths");
                if (own.Count > 0)
                {
                    return own.Select(p => System.IO.Path.GetFullPath(System.IO.Path.Combine(DirPath, p))).ToList();
                }

                return file.Common.Strings("resourcesPaths").Select(file.Resolve).ToList();
            }
        }

        public string? ConfigFilePath
        {
            get
            {
                var own = node.Scalar("configFilePath");
                if (own is not null)
                {
                    return System.IO.Path.GetFullPath(System.IO.Path.Combine(DirPath, own));
                }

                var common = file.Common.Scalar("configFilePath");
                return common is null ? null : file.Resolve(common);
            }
        }

        private static int Int(YamlMappingNode node, string key) =>
            int.Parse(node.Scalar(key) ?? "0", CultureInfo.InvariantCulture);
    }
}
