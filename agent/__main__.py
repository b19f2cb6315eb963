from memvisor.agent.cli import main

main()
