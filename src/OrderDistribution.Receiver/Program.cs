using OrderDistribution.Receiver;
using OrderDistribution.ServiceDefaults;

var builder = WebApplication.CreateBuilder(args);
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
