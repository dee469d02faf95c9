import DelayboxCtlCommands

DelayboxCtlProgram.main()
