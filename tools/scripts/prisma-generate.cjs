console.log("prisma generate: not set up yet");
