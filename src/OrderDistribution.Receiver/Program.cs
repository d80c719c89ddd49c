using OrderDistribution.Receiver;
using OrderDistribution.ServiceDefaults;

if (SettingsCheck.CreateBuilderIfSettingsAreReadable(args) is not { } builder)
{
    return SettingsCheck.RefusedExitCode;
}

builder.AddServiceDefaults();
builder.AddReceiver();

if (builder.BuildIfSettingsAreValid() is not { } app)
{
    return SettingsCheck.RefusedExitCode;
}

app.UseServiceDefaults();
app.MapReceiverEndpoints();
app.Run();
return 0;

public partial class Program;
