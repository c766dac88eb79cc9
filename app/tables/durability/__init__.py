"""What outlives the process: the table journal (every accepted action, written before it is sent) and the
settlement of each hand (结算) in the database."""
