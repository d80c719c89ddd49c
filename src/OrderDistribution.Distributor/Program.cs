using OrderDistribution.Distributor;
using OrderDistribution.ServiceDefaults;

if (SettingsCheck.CreateBuilderIfSettingsAreReadable(args) is not { } builder)
{
    return SettingsCheck.RefusedExitCode;
}

builder.AddServiceDefaults();
builder.AddDistributor();

if (builder.BuildIfSettingsAreValid() is not { } app)
{
    return SettingsCheck.RefusedExitCode;
}

app.UseServiceDefaults();
app.MapDistributorEndpoints();
app.Run();
return 0;

public partial class Program;
