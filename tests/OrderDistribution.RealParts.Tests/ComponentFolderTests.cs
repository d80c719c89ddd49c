using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The components the fixture's sidecars run are the repository's, pointed at the brokers it started.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class ComponentFolderTests : IDisposable
{
    private static readonly ComponentAddresses Started = new("127.0.0.1:41001", "127.0.0.1:41002");

    private readonly string _target = Directory.CreateTempSubdirectory("components-").FullName;

    public void Dispose() => Directory.Delete(_target, recursive: true);

    [Theory]
    [InlineData("components-pubsub")]
    [InlineData("components-bindings")]
    public void A_rendered_folder_differs_from_the_repositorys_only_in_the_broker_addresses(string folder)
    {
        ComponentFolder.Render(Repo.PathOf(folder), _target, Started);

        var source = DaprComponent.LoadFolder(folder);
        var rendered = DaprComponent.LoadFolder(_target);
        Assert.Equal(source.Select(c => (c.File, c.Name, c.Type, Scopes: string.Join(',', c.Scopes))),
            rendered.Select(c => (c.File, c.Name, c.Type, Scopes: string.Join(',', c.Scopes))));
        foreach (var (before, after) in source.Zip(rendered))
        {
            Assert.Equal(before.Metadata.Keys, after.Metadata.Keys);
            var changed = before.Metadata.Where(m => after.Metadata[m.Key] != m.Value).Select(m => m.Key).ToList();
            Assert.Equal(before.Type == "pubsub.redis" ? ["redisHost"] : ["host"], changed);
        }

        // Resiliency, configuration and every comment: byte for byte.
        foreach (var file in Directory.EnumerateFiles(Repo.PathOf(folder))
            .Where(f => !source.Any(c => c.File == Path.GetFileName(f))))
        {
            Assert.Equal(File.ReadAllBytes(file), File.ReadAllBytes(Path.Combine(_target, Path.GetFileName(file))));
        }
    }

    [Fact]
    public async Task The_bindings_sidecars_run_the_rendered_consumers_per_queue_each_reaching_the_started_rabbitmq()
    {
        // The trio renders the folder its run file names: for bindings, the copy scripts/run-local.sh writes with the
        // further consumers of each queue, not the committed folder's one consumer per queue.
        var runFile = DaprRunFile.LoadFullPath(await RunFiles.RenderAsync(MessagingModel.Bindings));
        var folder = Assert.Single(runFile.Apps.SelectMany(a => a.ResourcesPaths).Distinct());
        Assert.Equal(Repo.PathOf(".dapr/components-bindings"), folder);

        ComponentFolder.Render(folder, _target, Started);

        var inputs = DaprComponent.LoadFolder(_target).Where(c => c["direction"] == "input").ToList();
        var committed = DaprComponent.LoadFolder(Repo.PathOf("components-bindings"))
            .Count(c => c["direction"] == "input");
        Assert.Equal(DaprComponent.LoadFolder(folder).Count(c => c["direction"] == "input"), inputs.Count);
        Assert.True(inputs.Count > committed,
            $"{inputs.Count} input components, as many as the committed folder's {committed}");
        Assert.All(inputs, c => Assert.Equal("amqp://guest:guest@127.0.0.1:41002/orders", c["host"]));
        Assert.Equal(File.ReadAllBytes(Path.Combine(folder, "resiliency.yaml")),
            File.ReadAllBytes(Path.Combine(_target, "resiliency.yaml")));
    }

    [Fact]
    public void Redis_is_reached_where_it_was_started()
    {
        ComponentFolder.Render(Repo.PathOf("components-pubsub"), _target, Started);

        Assert.Equal("127.0.0.1:41001", Assert.Single(DaprComponent.LoadFolder(_target))["redisHost"]);
    }

    [Fact]
    public void Rabbitmq_is_reached_where_it_was_started_with_the_same_login_and_nothing_else_of_its_uri_changed()
    {
        ComponentFolder.Render(Repo.PathOf("components-bindings"), _target, Started);

        var hosts = DaprComponent.LoadFolder(Repo.PathOf("components-bindings"))
            .Zip(DaprComponent.LoadFolder(_target), (before, after) => (Before: before["host"]!, After: after["host"]!))
            .ToList();
        Assert.NotEmpty(hosts);
        Assert.All(hosts,
            h => Assert.Equal(h.Before.Replace("127.0.0.1:5672", "127.0.0.1:41002", StringComparison.Ordinal),
            h.After));
        Assert.All(hosts, h => Assert.Equal("amqp://guest:guest@127.0.0.1:41002/orders", h.After));
    }

    [Fact]
    public void Rendered_with_the_addresses_the_folder_names_the_copy_is_the_folder_itself()
    {
        foreach (var folder in new[] { "components-pubsub", "components-bindings" })
        {
            var target = Path.Combine(_target, folder);
            ComponentFolder.Render(Repo.PathOf(folder), target,
                new ComponentAddresses("localhost:6379", "127.0.0.1:5672"));

            foreach (var file in Directory.EnumerateFiles(Repo.PathOf(folder)))
            {
                Assert.Equal(File.ReadAllText(file), File.ReadAllText(Path.Combine(target, Path.GetFileName(file))));
            }
        }
    }
}
